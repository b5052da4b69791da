/**
 * @module test-python
 * The Python interpreter tests run: `VITRINE_PYTHON` when set, else Debian's `/usr/bin/python3`
 * (another python3 may come first on PATH on a developer's machine; CI installs Debian's).
 */
export const TEST_PYTHON = process.env['VITRINE_PYTHON'] || '/usr/bin/python3';
