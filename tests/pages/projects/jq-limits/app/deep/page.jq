{s: (reduce range(if $query.deep == "yes" then 10001 else 3 end) as $_ ([]; [.]) | tojson)}
