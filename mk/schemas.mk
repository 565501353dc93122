# mk/schemas.mk - the project's own JSON Schemas, checked with its own engine:
# tests/check-schemas.sh schema-checks schema/*.json and schema/mcp/*/*.json, validates the
# shipped rule files and manifest (rules-yaml/) and tests/data/rules-extra/ against
# schema/rule-file.schema.json and schema/manifest.schema.json, makes sure the planted
# mistakes of tests/data/rule-schema/ are rejected (by the schema and by the loader), and
# that the schema covers exactly the predicates of the one table, src/rules/fn_table.c.
# Runs under `make check` (plain, then BUILD=build/san SAN=1).

.PHONY: test-schemas
test-schemas: $(BIN)
	sh tests/check-schemas.sh $(BIN)

EXTRA_CHECKS += test-schemas
