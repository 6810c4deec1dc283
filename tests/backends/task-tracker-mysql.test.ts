// The task tracker suite (task-tracker.suite.ts) on mysql, in a database of this run's own.

import { test } from "../support/jest.js";
import { backendAvailable } from "./support/databases.js";
import { networkSuiteBackend } from "./support/suite-backends.js";
import { taskTrackerSuite } from "./task-tracker.suite.js";

if (await backendAvailable("mysql")) taskTrackerSuite(networkSuiteBackend("mysql"));
else test.skip("task tracker on mysql (no server)", () => undefined);
