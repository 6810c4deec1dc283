// What the language server takes from the analyze phase, in one place: the analyzer's
// folders are being regrouped, and this is the one file whose imports follow them.

export type {
  ActionModel,
  FieldModel,
  FnModel,
  IrStmt,
  Model,
  ParamModel,
  QueryModel,
  RecordTypeModel,
  ResourceModel,
  ValueType,
} from "../analyze/model/model.js";
export { describe } from "../analyze/shared/types.js";
export { BUILTINS } from "../analyze/expressions/builtins.js";
export { tokenize as sqlTokens, sameName, type Token as SqlToken } from "../analyze/sql/tokens.js";
export { tableRefs, refByQualifier } from "../analyze/sql/refs.js";
