// A rename under load on PostgreSQL (issue 35, target 1): support/rolling-rename.ts.

import { rollingRename } from "./support/rolling-rename.js";

await rollingRename("postgres");
