// The prettier options svc formats server.ts with. `svc build` also writes them beside
// server.ts as .prettierrc.json, where prettier finds them, so a user's own prettier
// (an editor, `prettier --check dist`) formats the file as svc did.

export const FORMAT_OPTIONS = {
  printWidth: 110,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  tabWidth: 2,
} as const;

export const PRETTIER_RC = `${JSON.stringify(FORMAT_OPTIONS, null, 2)}\n`;
