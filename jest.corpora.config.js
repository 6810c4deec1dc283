// `npm run test:corpora`: the long differential corpora only (`*.corpus.test.ts`: every
// compiled jq program against jq-web on seeded random inputs), which `npm test` leaves out
// to stay fast. CI (.ci/run) runs both scripts.
import base from "./jest.config.js";

export default {
  ...base,
  testMatch: ["**/*.corpus.test.js"],
  testPathIgnorePatterns: ["/node_modules/"],
};
