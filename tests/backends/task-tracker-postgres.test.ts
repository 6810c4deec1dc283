// The task tracker suite (task-tracker.suite.ts) on postgres, in a schema of this run's own.

import { test } from "../support/jest.js";
import { backendAvailable } from "./support/databases.js";
import { networkSuiteBackend } from "./support/suite-backends.js";
import { taskTrackerSuite } from "./task-tracker.suite.js";

if (await backendAvailable("postgres")) taskTrackerSuite(networkSuiteBackend("postgres"));
else test.skip("task tracker on postgres (no server)", () => undefined);
