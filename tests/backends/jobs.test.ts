// Jobs across three servers on PostgreSQL and on MariaDB (jobs.suite.ts). The suite's counts
// keep it short on a loaded machine; SVC_JOBS_TEST_COUNT=10000 runs the full count.

import { defineJobsSuite } from "./jobs.suite.js";
import { backendAvailable } from "./support/databases.js";

const count = Number(process.env.SVC_JOBS_TEST_COUNT ?? 2000);

defineJobsSuite("postgres", await backendAvailable("postgres"), count, 1500);
defineJobsSuite("mysql", await backendAvailable("mysql"), Math.min(count, 1000), 1000);
