// Content-Type reading shared by body parsing, webhooks, the cross-site form check and pages.

import { describe, expect, test } from "../../support/jest.js";
import { isJsonMedia, mediaType, parameterValues } from "../../../runtime/core/media-type.js";

describe("media type", () => {
  test("lower case, parameters and spaces dropped; no header is empty", () => {
    expect(mediaType(undefined)).toBe("");
    expect(mediaType("")).toBe("");
    expect(mediaType("Application/JSON")).toBe("application/json");
    expect(mediaType("  multipart/form-data ; boundary=x")).toBe("multipart/form-data");
    expect(mediaType(";charset=utf-8")).toBe("");
  });

  test("JSON is application/json and the application/*+json types", () => {
    expect(isJsonMedia("application/json")).toBe(true);
    expect(isJsonMedia("application/vnd.api+json")).toBe(true);
    expect(isJsonMedia("text/json")).toBe(false);
    expect(isJsonMedia("application/jsonx")).toBe(false);
    expect(isJsonMedia("")).toBe(false);
  });

  test("parameter values: every occurrence, lower case, quotes removed", () => {
    expect(parameterValues("text/plain", "charset")).toEqual([]);
    expect(parameterValues('text/plain; Charset="UTF-8"', "charset")).toEqual(["utf-8"]);
    expect(parameterValues("text/plain; charset=utf-8; charset=latin1", "charset")).toEqual(["utf-8", "latin1"]);
    expect(parameterValues("text/plain; format=flowed; novalue", "charset")).toEqual([]);
    expect(parameterValues('text/plain; charset=""', "charset")).toEqual([""]);
  });
});
