// Which traces are recorded, as OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG say
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/): the
// six built-in samplers, `parentbased_always_on` by default. An unknown name or a ratio outside
// 0..1 stops the start, naming the variable, rather than silently sampling something else.

import { StartupError } from "../core/errors.js";
import type { Env } from "./config.js";
import type { ParentContext } from "./span.js";

export interface Sampler {
  /** Whether a span is recorded: `random` its trace id's low 52 bits (span.ts: randomness); `parent` its parent, null for a root. */
  sampled(random: number, parent: ParentContext | null): boolean;
}

const ALWAYS_ON: Sampler = { sampled: () => true };
const ALWAYS_OFF: Sampler = { sampled: () => false };

/**
 * A fixed fraction of traces, decided by the trace id alone so every process of a trace decides
 * alike: its last 13 hex digits (random in W3C trace context level 2; 52 bits, exact in a double)
 * at or above the threshold the ratio gives, as OpenTelemetry's probability sampling compares
 * its last 56.
 */
export function ratioSampler(ratio: number): Sampler {
  const threshold = 2 ** 52 - Math.round(ratio * 2 ** 52);
  return { sampled: (random) => random >= threshold };
}

/** A child follows its parent's decision (the `sampled` flag of a `traceparent`); a root asks `root`. */
function parentBased(root: Sampler): Sampler {
  return { sampled: (random, parent) => (parent === null ? root.sampled(random, null) : (parent.traceFlags & 1) === 1) };
}

/** The sampler the environment names; `always` overrides it (svc dev records every request). */
export function samplerFromEnv(env: Env, always = false): Sampler {
  if (always) return ALWAYS_ON;
  const name = (env.OTEL_TRACES_SAMPLER?.trim() || "parentbased_always_on").toLowerCase();
  const ratio = (): number => {
    const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    if (arg === undefined || arg === "") return 1;
    const value = Number(arg);
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new StartupError("SVC_ERR_OPTION", `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not "${arg}"`);
    return value;
  };
  switch (name) {
    case "always_on":
      return ALWAYS_ON;
    case "always_off":
      return ALWAYS_OFF;
    case "traceidratio":
      return ratioSampler(ratio());
    case "parentbased_always_on":
      return parentBased(ALWAYS_ON);
    case "parentbased_always_off":
      return parentBased(ALWAYS_OFF);
    case "parentbased_traceidratio":
      return parentBased(ratioSampler(ratio()));
    default:
      throw new StartupError("SVC_ERR_OPTION", 
        `OTEL_TRACES_SAMPLER "${env.OTEL_TRACES_SAMPLER}" is not one svc knows: always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio`,
      );
  }
}
