// runtime/auth/jose.ts: the first use waits for jose to load; every use after takes it as it is.

import { expect, test } from "../../support/jest.js";
import { jose } from "../../../runtime/auth/jose.js";

test("jose is there without waiting once it has loaded, the same module each time", async () => {
  const first = await jose();
  expect(typeof first.jwtVerify).toBe("function");
  const again = jose();
  expect(again).not.toBeInstanceOf(Promise);
  expect(again).toBe(first);
});
