// Errors that point at a layer file and line, the way the build reports them.
import { relative } from 'node:path';
import { ROOT } from '../lib/paths.ts';

export interface Where {
  /** The layer folder name, e.g. 01-pull-fast-path. */
  layer: string;
  file: string;
  line: number;
}

export function formatWhere(where: Where): string {
  return `layer ${where.layer}: ${relative(ROOT, where.file) || where.file}:${where.line}`;
}

export class OverlayError extends Error {
  where?: Where;
  constructor(message: string, where?: Where) {
    super(where ? `${formatWhere(where)}: ${message}` : message);
    this.where = where;
  }
}

/** Something the compiler chose not to do, worth a look (an unknown receiver type…). */
export interface Note {
  where: Where;
  message: string;
}

export function formatNote(note: Note): string {
  return `${formatWhere(note.where)}: ${note.message}`;
}
