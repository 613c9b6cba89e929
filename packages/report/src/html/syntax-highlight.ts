import { parseSource } from '@pathprof/cfg';
import { escapeHtml } from './escape-html';

/** A token's class in the page's stylesheet, by Babel's token label; others (punctuation, names) stay plain. */
function tokenClass(label: string, keyword: string | undefined): string | null {
  if (keyword) return 'tk';
  switch (label) {
    case 'string':
    case 'template':
    case '`':
    case 'jsxText':
      return 'ts';
    case 'num':
    case 'bigint':
    case 'decimal':
      return 'tn';
    case 'regexp':
      return 'tr';
    case 'CommentLine':
    case 'CommentBlock':
      return 'tc';
    default:
      return null;
  }
}

interface Token {
  readonly start: number;
  readonly end: number;
  readonly type: string | { label: string; keyword?: string };
}

/**
 * The source as HTML lines with its tokens classed (keywords, strings, numbers, regular expressions,
 * comments), from Babel's own tokens, so what is highlighted is what the parser read; null when the text does
 * not parse (the page then shows it plain).
 */
export function highlightedLines(text: string, filename: string): string[] | null {
  let tokens: Token[];
  try {
    tokens = parseSource(text, filename, { tokens: true }).tokens as Token[];
  } catch {
    return null;
  }
  const lines: string[] = [];
  let line = '';
  const emit = (from: number, to: number, cls: string | null) => {
    const parts = text.slice(from, to).split('\n');
    parts.forEach((part, i) => {
      if (i > 0) {
        lines.push(line.replace(/\r$/, ''));
        line = '';
      }
      const piece = escapeHtml(i < parts.length - 1 ? part.replace(/\r$/, '') : part);
      if (piece) line += cls ? `<span class="${cls}">${piece}</span>` : piece;
    });
  };
  let at = 0;
  for (const token of tokens) {
    if (token.start < at || token.end <= token.start) continue;
    const cls =
      typeof token.type === 'string'
        ? tokenClass(token.type, undefined)
        : tokenClass(token.type.label, token.type.keyword);
    emit(at, token.start, null);
    emit(token.start, token.end, cls);
    at = token.end;
  }
  emit(at, text.length, null);
  lines.push(line);
  return lines;
}
