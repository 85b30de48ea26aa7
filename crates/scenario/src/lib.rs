//! Scenario files: TOML schema, units, validation with precise errors, dotted-path overrides
