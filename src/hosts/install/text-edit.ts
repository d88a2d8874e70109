// A FileEdit for a text file that holds one managed block (AGENTS.md, GEMINI.md, config.toml).
import { sameText, type FileEdit } from './file-edits.js';
import { hasBlock, removeBlock, upsertBlock, type BlockMarkers } from '../../text/managed-block.js';

export interface TextEditSpec {
  path: string;
  display: string;
  /** The block's body (without markers). */
  body: string;
  markers: BlockMarkers;
}

/** The FileEdit of a text file with a managed block; removing it from a file we created deletes it. */
export function textEdit(spec: TextEditSpec): FileEdit {
  return {
    path: spec.path,
    display: spec.display,
    install: (before) => upsertBlock(before ?? '', spec.body, spec.markers),
    remove: (before) => {
      if (before === null) return null;
      return removeBlock(before, spec.markers);
    },
    holdsOurs: (before) => before !== null && hasBlock(before, spec.markers),
    equivalent: sameText,
  };
}
