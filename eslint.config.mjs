import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // tmp/ holds scratch projects the end-to-end tests create (gitignored, like bench work files).
  { ignores: ['**/node_modules/**', '**/dist/**', 'packages/cfg/test/fixtures/**', 'coverage/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
