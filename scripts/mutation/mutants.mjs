// The mutants of a TypeScript file (parsed with the compiler API), made with a few standard operators.

import { createHash } from "node:crypto";
import ts from "typescript";

const SWAP_METHODS = {
  startsWith: "endsWith",
  endsWith: "startsWith",
  some: "every",
  every: "some",
  toLowerCase: "toUpperCase",
  toUpperCase: "toLowerCase",
  min: "max",
  max: "min",
  trimStart: "trimEnd",
  trimEnd: "trimStart",
};
const K = ts.SyntaxKind;
const BINARY = new Map([
  [K.LessThanToken, ["<=", "boundary"]],
  [K.LessThanEqualsToken, ["<", "boundary"]],
  [K.GreaterThanToken, [">=", "boundary"]],
  [K.GreaterThanEqualsToken, [">", "boundary"]],
  [K.EqualsEqualsEqualsToken, ["!==", "equality"]],
  [K.ExclamationEqualsEqualsToken, ["===", "equality"]],
  [K.EqualsEqualsToken, ["!=", "equality"]],
  [K.ExclamationEqualsToken, ["==", "equality"]],
  [K.AmpersandAmpersandToken, ["||", "logical"]],
  [K.BarBarToken, ["&&", "logical"]],
  [K.PlusToken, ["-", "arithmetic"]],
  [K.MinusToken, ["+", "arithmetic"]],
  [K.AsteriskToken, ["/", "arithmetic"]],
  [K.SlashToken, ["*", "arithmetic"]],
  [K.PlusEqualsToken, ["-=", "assignment"]],
  [K.MinusEqualsToken, ["+=", "assignment"]],
]);

function isStringy(node) {
  return (
    ts.isStringLiteral(node) || ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)
  );
}

function isErrorMessage(node) {
  // A message given to `new SomethingError(...)` / `new Error(...)` (its text is not behaviour).
  let p = node.parent;
  while (p && (ts.isBinaryExpression(p) || ts.isParenthesizedExpression(p) || ts.isTemplateSpan(p)))
    p = p.parent;
  return (
    p !== undefined &&
    ts.isNewExpression(p) &&
    ts.isIdentifier(p.expression) &&
    /Error$/.test(p.expression.text) &&
    (p.arguments ?? []).some((a) => a.pos <= node.pos && node.end <= a.end)
  );
}

function inIf(node) {
  const p = node.parent;
  return ts.isIfStatement(p) || (ts.isBlock(p) && ts.isIfStatement(p.parent));
}

/** The mutants of one file: { file, start, end, replacement, operator, original, line, col, endLine }. */
export function mutantsOf(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out = [];
  const seen = new Set();
  const add = (_node, start, end, replacement, operator) => {
    const key = `${start}:${end}:${replacement}`;
    if (seen.has(key)) return;
    seen.add(key);
    const { line, character } = sf.getLineAndCharacterOfPosition(start);
    const endLine = sf.getLineAndCharacterOfPosition(end).line;
    out.push({
      file,
      start,
      end,
      replacement,
      operator,
      original: text.slice(start, end),
      line: line + 1,
      col: character + 1,
      endLine: endLine + 1,
      code: text.split("\n")[line].trim(),
    });
  };
  const negate = (cond) => {
    if (cond.kind === K.TrueKeyword || cond.kind === K.FalseKeyword) return;
    add(cond, cond.getStart(sf), cond.getEnd(), `!(${cond.getText(sf)})`, "negate-condition");
  };
  const visit = (node) => {
    if (
      ts.isTypeNode(node) ||
      ts.isImportDeclaration(node) ||
      ts.isExportDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isModuleDeclaration(node) ||
      ts.isTypeParameterDeclaration(node) ||
      ts.isImportEqualsDeclaration(node)
    )
      return;
    if (ts.isBinaryExpression(node)) {
      const op = BINARY.get(node.operatorToken.kind);
      const concat =
        (node.operatorToken.kind === K.PlusToken || node.operatorToken.kind === K.PlusEqualsToken) &&
        (isStringy(node.left) || isStringy(node.right));
      if (op && !concat)
        add(node, node.operatorToken.getStart(sf), node.operatorToken.getEnd(), op[0], op[1]);
    } else if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) {
      negate(node.expression);
    } else if (ts.isForStatement(node) && node.condition) {
      negate(node.condition);
    } else if (ts.isConditionalExpression(node)) {
      negate(node.condition);
    } else if (node.kind === K.TrueKeyword || node.kind === K.FalseKeyword) {
      add(node, node.getStart(sf), node.getEnd(), node.kind === K.TrueKeyword ? "false" : "true", "boolean");
    } else if (ts.isPrefixUnaryExpression(node) && node.operator === K.ExclamationToken) {
      add(node, node.getStart(sf), node.getEnd(), node.operand.getText(sf), "remove-not");
    } else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === K.PlusPlusToken || node.operator === K.MinusMinusToken)
    ) {
      const operand = node.operand.getText(sf);
      const op = node.operator === K.PlusPlusToken ? "--" : "++";
      add(
        node,
        node.getStart(sf),
        node.getEnd(),
        ts.isPrefixUnaryExpression(node) ? op + operand : operand + op,
        "update",
      );
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const p = node.parent;
      const isName =
        (ts.isPropertyAssignment(p) && p.name === node) ||
        ts.isLiteralTypeNode(p) ||
        (ts.isExpressionStatement(p) && ts.isSourceFile(p.parent)); // a directive
      if (!isName && !isErrorMessage(node) && node.text.length <= 24)
        add(node, node.getStart(sf), node.getEnd(), node.text === "" ? '"x"' : '""', "string");
    } else if (ts.isNumericLiteral(node)) {
      const n = Number(node.text.replaceAll("_", ""));
      // One mutant a literal: 1 → 0, every other n → n + 1.
      if (Number.isInteger(n) && n <= 256)
        add(node, node.getStart(sf), node.getEnd(), String(n === 1 ? 0 : n + 1), "number");
    } else if (ts.isExpressionStatement(node)) {
      let e = node.expression;
      if (ts.isAwaitExpression(e) || ts.isVoidExpression(e)) e = e.expression;
      if (ts.isCallExpression(e) && e.expression.kind !== K.SuperKeyword)
        add(node, node.getStart(sf), node.getEnd(), ";", "remove-call");
    } else if (
      (ts.isReturnStatement(node) ||
        ts.isThrowStatement(node) ||
        ts.isContinueStatement(node) ||
        ts.isBreakStatement(node)) &&
      inIf(node)
    ) {
      add(node, node.getStart(sf), node.getEnd(), ";", "remove-early-exit");
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name;
      const swap = SWAP_METHODS[name.text];
      const isMath =
        ts.isIdentifier(node.expression.expression) && node.expression.expression.text === "Math";
      if (swap && ((name.text !== "min" && name.text !== "max") || isMath))
        add(name, name.getStart(sf), name.getEnd(), swap, "method");
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out.sort((a, b) => a.start - b.start || a.replacement.localeCompare(b.replacement));
}

export function applyMutant(text, m) {
  return text.slice(0, m.start) + m.replacement + text.slice(m.end);
}

// A fixed sample (the same on every run): a hash of the mutant, not Math.random.
export function sampleKey(m) {
  return createHash("sha1").update(`${m.file}|${m.start}|${m.replacement}`).digest().readUInt32BE(0);
}
