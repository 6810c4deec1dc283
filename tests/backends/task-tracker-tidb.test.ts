// No TiDB server can run here: `--backend tidb` (TiDB's retry codes, its dialect rules)
// runs the task tracker suite against the MySQL-protocol server (MariaDB), which speaks
// the same protocol. TiDB's own behaviour is covered by unit tests (tidb.test.ts).

import { test } from "../support/jest.js";
import { backendAvailable } from "./support/databases.js";
import { networkSuiteBackend } from "./support/suite-backends.js";
import { taskTrackerSuite } from "./task-tracker.suite.js";

if (await backendAvailable("mysql")) taskTrackerSuite(networkSuiteBackend("mysql", "tidb"));
else test.skip("task tracker on tidb (no MySQL-protocol server)", () => undefined);
