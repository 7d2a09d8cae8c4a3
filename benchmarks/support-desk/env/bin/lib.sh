# Shared by the store's tools: the database is one JSON object per line in db/orders.jsonl, with
# string values free of quotes and numbers with two decimals, so busybox sed/awk can edit it.
DB=/workspace/db/orders.jsonl

fail() { printf '{"error":"%s"}\n' "$1"; exit 1; }

check_id() {
  case "$1" in '' | *[!A-Za-z0-9]*) fail "invalid order id: use the id as shown, e.g. A1001" ;; esac
}

# record ID: the order's line, or fail
record() {
  r=$(grep "\"id\":\"$1\"" "$DB")
  [ -n "$r" ] || fail "order $1 not found"
  printf '%s\n' "$r"
}

# field LINE KEY: a string value without quotes, or a number
field() {
  printf '%s\n' "$1" | sed -n -e "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p" -e t -e "s/.*\"$2\":\(-\{0,1\}[0-9.]*\).*/\1/p"
}

# set_str ID KEY VALUE / set_num ID KEY NUMBER: rewrite one field of one order in place
set_str() {
  v=$(printf '%s' "$3" | sed 's/[\/&]/\\&/g')
  sed -i "/\"id\":\"$1\"/ s/\"$2\":\"[^\"]*\"/\"$2\":\"$v\"/" "$DB"
}
set_num() {
  sed -i "/\"id\":\"$1\"/ s/\"$2\":-\{0,1\}[0-9.]*/\"$2\":$3/" "$DB"
}
