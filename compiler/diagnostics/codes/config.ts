import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);

/** svc.toml and project discovery: SVC4001–SVC4099. */
export const configCodes = {
  tomlSyntax: d(
    "SVC4001",
    "error",
    "svc.toml is not valid TOML.",
    (problem: string) => `svc.toml is not valid TOML: ${problem}`,
    () => "see https://toml.io for the syntax",
  ),
  unknownKey: d(
    "SVC4002",
    "error",
    "svc.toml has a key or table the project configuration does not know.",
    (path: string, _near: string | null, _known: readonly string[]) => `unknown key ${path}`,
    (_path: string, near: string | null, known: readonly string[]) =>
      didYouMean(near) ?? (known.length > 0 ? `known keys here: ${known.join(", ")}` : undefined),
  ),
  wrongType: d(
    "SVC4003",
    "error",
    "A key of svc.toml holds a value of the wrong type.",
    (path: string, expected: string, found: string, _hint?: string) => `${path} must be ${expected}, found ${found}`,
    (_path: string, _expected: string, _found: string, hint?: string) => hint,
  ),
  notOneOf: d(
    "SVC4004",
    "error",
    "A key of svc.toml only accepts a fixed set of values.",
    (path: string, value: string, allowed: readonly string[], _near: string | null) =>
      `${path} must be one of ${allowed.join(", ")}; found \`${value}\``,
    (_path: string, _value: string, _allowed: readonly string[], near: string | null) => didYouMean(near),
  ),
  outOfRange: d(
    "SVC4005",
    "error",
    "A number in svc.toml is outside the range its key accepts.",
    (path: string, value: string, min: number, max: number) =>
      `${path} must be between ${min} and ${max}, found ${value}`,
  ),
  badValue: d(
    "SVC4006",
    "error",
    "A string in svc.toml does not have the form its key needs.",
    (path: string, expected: string, value: string, _hint?: string) =>
      `${path} must be ${expected}, found \`${value}\``,
    (_path: string, _expected: string, _value: string, hint?: string) => hint,
  ),
  credentialSource: d(
    "SVC4007",
    "error",
    "A credential must name exactly one source: an environment variable or a file.",
    (path: string, both: boolean) =>
      both ? `${path} names both env and file; a credential has one source` : `${path} names no source`,
    (path: string) => `write \`${path.split(".").pop()} = { env = "VAR" }\` or \`{ file = "/path" }\``,
  ),
  missingKey: d(
    "SVC4008",
    "error",
    "A table of svc.toml lacks a key it needs.",
    (path: string, key: string, example: string) => `${path} needs the key ${key}`,
    (_path: string, _key: string, example: string) => `write ${example}`,
  ),
  undeclaredCredential: d(
    "SVC4009",
    "warning",
    "svc.toml refers to a credential its [credentials] table does not declare.",
    (path: string, name: string, _near: string | null) =>
      `${path} names the credential \`${name}\`, which [credentials] does not declare`,
    (_path: string, name: string, near: string | null) =>
      didYouMean(near) ??
      `without an entry the server reads it from the environment variable SVC_CREDENTIAL_${name.toUpperCase()}`,
  ),
  urlBackendMismatch: d(
    "SVC4010",
    "error",
    "database.url names a different database than database.backend.",
    (urlBackend: string, backend: string) =>
      `database.url is a ${urlBackend} URL, but database.backend is \`${backend}\``,
    (_urlBackend: string, backend: string) => `give a URL for ${backend}, or change database.backend`,
  ),
  unknownUrlScheme: d(
    "SVC4011",
    "error",
    "database.url starts with a scheme no supported database uses.",
    (scheme: string) => `database.url has the scheme \`${scheme}:\`, which names no supported database`,
    () => "use sqlite:PATH (or a plain file path), postgres://…, mysql://… or tidb://…",
  ),
  badCredentialName: d(
    "SVC4012",
    "error",
    "A credential name must be an identifier, so code can say credentials.NAME.",
    (name: string) => `the credential name \`${name}\` is not an identifier`,
    () => "use letters, digits and _, not starting with a digit",
  ),

  targetMissing: d(
    "SVC4020",
    "error",
    "The folder given on the command line does not exist or is not a folder.",
    (dir: string, isFile: boolean) => (isFile ? `${dir} is a file, not a folder` : `no folder ${dir}`),
  ),
  configMissing: d(
    "SVC4021",
    "error",
    "Project mode needs an svc.toml in the project folder.",
    (dir: string) => `no svc.toml in ${dir}`,
    () => "create svc.toml (every key is optional), or use --app or --module for a folder of modules",
  ),
  globMatchesNothing: d(
    "SVC4022",
    "error",
    "An entry of modules.dirs matches no folder holding .svc files.",
    (pattern: string, matchedFolders: number) =>
      matchedFolders === 0
        ? `modules.dirs entry \`${pattern}\` matches no folder`
        : `modules.dirs entry \`${pattern}\` matches ${matchedFolders} folder(s), none holding .svc files`,
  ),
  moduleDirMissing: d(
    "SVC4023",
    "error",
    "An entry of modules.dirs names a folder that does not exist.",
    (dir: string, isFile: boolean) =>
      isFile
        ? `modules.dirs entry \`${dir}\` is a file, not a folder`
        : `modules.dirs entry \`${dir}\`: no such folder`,
  ),
  moduleDirEmpty: d(
    "SVC4024",
    "error",
    "A module folder named in modules.dirs holds no .svc files.",
    (dir: string) => `module folder \`${dir}\` holds no .svc files`,
  ),
  appDirMissing: d(
    "SVC4025",
    "error",
    "app.dir names a folder that does not exist.",
    (dir: string, isFile: boolean) =>
      isFile ? `app.dir \`${dir}\` is a file, not a folder` : `app.dir \`${dir}\`: no such folder`,
    () => "remove the key when the project has no pages or route files",
  ),
  noModules: d(
    "SVC4026",
    "error",
    "The target holds no module folders.",
    (mode: string, dir: string) =>
      mode === "module"
        ? `${dir} holds no .svc files`
        : mode === "app"
          ? `${dir} has no subfolder holding .svc files`
          : `no module folders found (modules.dirs)`,
    (mode: string) =>
      mode === "module"
        ? "--module points at one folder of .svc files"
        : mode === "app"
          ? "--app points at a folder whose subfolders are modules, e.g. modules/ holding modules/tasks/tasks.svc"
          : 'modules.dirs lists the module folders; it defaults to ["modules/*"]',
  ),
  readFailed: d(
    "SVC4027",
    "error",
    "A file or folder of the project could not be read.",
    (path: string, reason: string) => `cannot read ${path}: ${reason}`,
  ),
};
