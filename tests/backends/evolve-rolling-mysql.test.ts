// A rename under load on MariaDB (issue 35, target 1): support/rolling-rename.ts. The new
// build's inserts leave the old column out; its BEFORE INSERT trigger fills it (NOT NULL).

import { rollingRename } from "./support/rolling-rename.js";

await rollingRename("mysql");
