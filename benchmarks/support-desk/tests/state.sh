#!/bin/sh
# Prints the store as one JSON object keyed by order id, for the `state` check.
awk '{ id = $0; sub(/^.*"id":"/, "", id); sub(/".*$/, "", id); printf "%s\"%s\":%s", (NR > 1 ? "," : "{"), id, $0 }
     END { if (NR == 0) printf "{"; print "}" }' /workspace/db/orders.jsonl
