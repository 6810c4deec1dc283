# The program of issue 15: on 10,001 numbers it breaks jq-web's WebAssembly instance.
def depth: reduce .[] as $x ([]; [.]);
[range($query.n | tonumber)] | depth | [., .] | sort | {n: length}
