import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A path a file of the repository names that lies outside it. */
export interface Outside {
  /** The file, from the repository's root, and the line. */
  at: string;
  /** The code that names it. */
  code: string;
  /** Where it leads, from the repository's root. */
  leads: string;
}

/** Calls whose first argument is a path the file system is asked for. */
const FS_CALLS = new Set([
  'readFileSync', 'readFile', 'writeFile', 'writeFileSync', 'appendFile', 'existsSync', 'readdir', 'readdirSync', 'opendir',
  'stat', 'statSync', 'lstat', 'access', 'accessSync', 'open', 'openSync', 'createReadStream', 'createWriteStream', 'cp', 'cpSync',
  'copyFile', 'rm', 'rmSync', 'mkdir', 'mkdirSync', 'rename', 'unlink', 'realpath', 'realpathSync', 'sampleRows', 'readBarsCsv',
]);

const isRelative = (text: string) => text === '.' || text === '..' || text.startsWith('./') || text.startsWith('../');

/** The text a literal starts with: all of a plain string, the part before the first `${` of a template. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text;
  return null;
}

const isImportMeta = (node: ts.Node, name: string) =>
  ts.isPropertyAccessExpression(node) && node.name.text === name && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword;

const calleeName = (call: ts.CallExpression | ts.NewExpression): string | null => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
};

/**
 * Every path a source file derives from where it lies (its own folder: import.meta.dirname, import.meta.url) or from
 * the working directory (a relative path, which the tests and the deck read from the repository's root), that leads
 * outside the repository: in an import, a `new URL(..., import.meta.url)`, a join or resolve of such a base (through
 * the file's own constants, `const ROOT = join(import.meta.dirname, '..')`), or a relative path given to the file
 * system. A path written whole from the system's root (`/tmp`, `/usr/bin/chromium`) is the system's, not checked;
 * a path read from the user's home (homedir(), HOME) always counts as outside.
 */
export function outsidePaths(root: string, file: string, text: string): Outside[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const here = dirname(join(root, file));
  const constants = new Map<string, ts.Expression>();
  const found: Outside[] = [];

  /** The absolute path an expression names, as far as its literal start goes; null when it is not known here. */
  const pathOf = (node: ts.Expression, seen = new Set<string>()): string | null => {
    if (isImportMeta(node, 'dirname') || (ts.isIdentifier(node) && node.text === '__dirname')) return here;
    if (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) return pathOf(node.expression, seen);
    if (ts.isIdentifier(node)) {
      const bound = constants.get(node.text);
      if (!bound || seen.has(node.text)) return null;
      return pathOf(bound, new Set(seen).add(node.text));
    }
    const literal = literalText(node);
    // A path written from the system's root is the system's; any other is read from the working directory.
    if (literal !== null) return isAbsolute(literal) ? null : resolve(root, literal);
    if (ts.isNewExpression(node) && calleeName(node) === 'URL' && node.arguments?.length === 2 && isImportMeta(node.arguments[1]!, 'url')) {
      const spec = literalText(node.arguments[0]!);
      return spec === null ? null : resolve(here, spec);
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'pathname') return pathOf(node.expression, seen);
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name === 'fileURLToPath' && node.arguments.length === 1) return pathOf(node.arguments[0]!, seen);
      if ((name === 'join' || name === 'resolve') && node.arguments.length > 0) {
        const [first, ...rest] = node.arguments;
        let path = pathOf(first!, seen);
        // The segments written out, up to the first one that is not (a template's written start counts, then stops).
        for (const part of rest) {
          const segment = literalText(part);
          if (path === null || segment === null) break;
          path = name === 'resolve' ? resolve(path, segment) : join(path, segment);
          if (ts.isTemplateExpression(part)) break;
        }
        return path;
      }
    }
    return null;
  };

  const outside = (node: ts.Node, leads: string): Outside => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return { at: `${file}:${line + 1}`, code: node.getText().slice(0, 160), leads };
  };

  const report = (node: ts.Node, path: string | null) => {
    if (path === null) return;
    const leads = relative(root, path);
    if (leads === '..' || leads.startsWith(`..${sep}`) || isAbsolute(leads)) found.push(outside(node, leads));
  };

  const visit = (node: ts.Node): void => {
    // An import or export of a module, static or dynamic, or a require: its specifier is relative to the file.
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || calleeName(node) === 'require') && node.arguments.length > 0
          ? node.arguments[0]
          : undefined;
    const spec = specifier ? literalText(specifier) : null;
    if (spec !== null && isRelative(spec)) report(node, resolve(here, spec));
    else if (ts.isNewExpression(node) || (ts.isCallExpression(node) && ['join', 'resolve', 'fileURLToPath'].includes(calleeName(node) ?? ''))) report(node, pathOf(node));
    if (ts.isCallExpression(node) && FS_CALLS.has(calleeName(node) ?? '') && node.arguments.length > 0) report(node, pathOf(node.arguments[0]!));
    // The user's home is outside any repository.
    if ((ts.isCallExpression(node) && calleeName(node) === 'homedir') || (ts.isPropertyAccessExpression(node) && node.name.text === 'HOME' && /\benv$/.test(node.expression.getText()))) {
      found.push(outside(node, "the user's home"));
    }
    ts.forEachChild(node, visit);
  };
  // Constants first, wherever they are declared in the file, then every use.
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const) {
      constants.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  visit(source);
  // A line names a place once, however many of its expressions lead there (the URL and the read of it).
  return found.filter((o, i) => found.findIndex((p) => p.at === o.at && p.leads === o.leads) === i);
}
