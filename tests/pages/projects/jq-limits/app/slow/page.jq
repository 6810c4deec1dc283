# del(.[nan]) never returns on jq-web 0.6.
[1, 2, 3] | if $query.forever == "yes" then del(.[nan]) else . end | {n: length}
