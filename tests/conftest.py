"""Suite-wide hooks: tests that need a system program skip where it is missing (fail under CI)."""

pytest_plugins = ["tests.support.system_deps"]
