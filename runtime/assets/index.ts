// Files served as they are: the app's public/ folder, Unpoly, and the API docs page.

export { apiDocs, DOCS_PATH, OPENAPI_PATH } from "./api-docs.js";
export { IMMUTABLE, notModified, PublicFiles, REVALIDATE, sendAsset, type StaticAsset, strongEtag } from "./public-files.js";
export { ASSET_PREFIX, isUnpolyRequest, unpolyAssets, type UnpolyAssets, unpolyLocation } from "./unpoly.js";
