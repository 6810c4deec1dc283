# TFB "fortunes": one more fortune made at request time, then all of them sorted by message.
{fortunes: (.records + [{id: 0, message: "Additional fortune added at request time."}] | sort_by(.message))}
