// Provider name → verifier: the only place that lists them. docs/language.md §2.4 names the five.

import type { WebhookProvider } from "../contract/index.js";
import { github } from "./github.js";
import { hmac } from "./hmac.js";
import { slack } from "./slack.js";
import { standard } from "./standard.js";
import { stripe } from "./stripe.js";
import type { Verifier } from "./verifier.js";

export const VERIFIERS: Readonly<Record<WebhookProvider, Verifier>> = { github, stripe, slack, standard, hmac };
