import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);

/** What a route answers: `respond` and svc.toml `[errors]` (docs/language.md §2.4, §4): SVC7101–SVC7199. */
export const respondCodes = {
  badStatus: d(
    "SVC7101",
    "error",
    "`respond` names a status other than the success statuses 200, 201, 202 and 204.",
    (status: string) => `\`respond ${status}\` is not a success status a route can answer`,
    () => "write 200 (the default), 201 (created), 202 (accepted) or 204 (no content); errors come from `fail` and the app's [errors] shape",
  ),
  bodyOn204: d(
    "SVC7102",
    "error",
    "`respond 204` is given a body; a 204 answer has none.",
    () => "a 204 (no content) answer has no body",
    () => "drop the body, or answer 200 with it",
  ),
  badHeader: d(
    "SVC7103",
    "error",
    "A `header` of `respond` is not a valid header name, is one the server sets itself, or is given twice.",
    (problem: string) => problem,
    () => "name a header such as \"Location\"; Content-Type, Content-Length, Connection, Transfer-Encoding and X-Request-Id belong to the server",
  ),
  unknownValue: d(
    "SVC7104",
    "error",
    "A module route's `respond` reads a name or a request value that does not exist there.",
    (problem: string, _near: string | null) => problem,
    (_problem: string, near: string | null) =>
      didYouMean(near) ?? "a module route's answer reads result, result.<field>, input.params.<name>, input.headers.<name> and input.base_url",
  ),
  errorShape: d(
    "SVC7105",
    "error",
    "svc.toml `[errors] body` is not a usable template for error bodies.",
    (problem: string) => problem,
    () => "e.g. body = { errors = { body = [\"{message}\"] } }; strings may hold {message} and {status}",
  ),
};
