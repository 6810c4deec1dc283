// Whether tracing is configured, read without loading OpenTelemetry: by the standard variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). An OTLP
// endpoint turns it on; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turns it off.

export type Env = Readonly<Record<string, string | undefined>>;

export function tracingConfigured(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}
