# gsub is outside the compiled subset: this loader runs on jq-web.
{note: .result, slug: (.result.title | ascii_downcase | gsub("[^a-z0-9]+"; "-")), param: $params.id}
