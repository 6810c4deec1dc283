label $out | {who: ($query.who // "nobody")} | ., break $out
