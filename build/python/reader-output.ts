/**
 * @module reader-output
 * What `read_plugin.py` prints: for each module, its functions, imports, string constants and
 * `specimens` declaration as expression trees. The reader says what is written; the build's
 * TypeScript decides what it means, so the mapping to schemas lives in one language.
 */

/** A 1-based line and a 1-based column in characters. */
export interface PyPosition {
  line: number;
  col: number;
}

interface ExprBase extends PyPosition {
  /** The code as written (whitespace collapsed, long code shortened). */
  text: string;
}

/**
 * One expression. A string constant in an annotation also carries `parsed`, the expression it
 * names (`"float"`, `'Literal["a"]'`), since annotations may be written as strings.
 */
export type PyExpr = ExprBase &
  (
    | { kind: 'name'; name: string }
    | { kind: 'constant'; value: string | number | boolean | null; float?: true; parsed?: PyExpr }
    | { kind: 'subscript'; value: PyExpr; args: PyExpr[] }
    | { kind: 'call'; func: PyExpr; args: PyExpr[]; keywords: { name: string; value: PyExpr }[] }
    | { kind: 'binop'; op: '|' | '+'; left: PyExpr; right: PyExpr }
    | { kind: 'sequence'; brackets: 'tuple' | 'list'; items: PyExpr[] }
    | { kind: 'mapping'; entries: { key: PyExpr; value: PyExpr }[] }
    | { kind: 'ellipsis' }
    | { kind: 'other' }
  );

export type PyParameterKind = 'positional_only' | 'positional' | 'keyword_only' | 'var_positional' | 'var_keyword';

export interface PyParameter extends PyPosition {
  name: string;
  kind: PyParameterKind;
  annotation: PyExpr | null;
  default: PyExpr | null;
}

export interface PyFunction extends PyPosition {
  name: string;
  async: boolean;
  /** The docstring, indentation cleaned (inspect.cleandoc), or null. */
  docstring: string | null;
  parameters: PyParameter[];
  returns: PyExpr | null;
}

export interface PyModule {
  functions: PyFunction[];
  /** Local name → what it imports: `t` → `typing`, `Range` → `vitrine.Range`. */
  imports: Record<string, string>;
  /** Module-level names assigned once to a string-like value (for `specimens`). */
  constants: Record<string, PyExpr>;
  /** `specimens = ...` at module level: where, and its value. */
  specimens: (PyPosition & { value: PyExpr }) | null;
}

/** A module that could not be read (a syntax error): why and where. */
export interface PyModuleError {
  error: PyPosition & { message: string };
}

export interface ReaderOutput {
  /** The interpreter's version, [major, minor, micro]. */
  version: [number, number, number];
  /** By the path given on the command line. */
  modules: Record<string, PyModule | PyModuleError>;
}
