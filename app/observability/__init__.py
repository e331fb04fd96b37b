"""What the running service tells its operators: Prometheus metrics, OpenTelemetry traces, run trajectories and
the redaction of secrets from every log line. Runtime code; the offline tools (``app/tools``) read from here,
never the other way round."""
