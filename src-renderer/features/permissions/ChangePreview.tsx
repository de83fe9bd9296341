import type { PermissionPreview } from '@shared/domain/permissions';
import { DiffView } from '../transcript/DiffView';

/** What an Edit or Write would change, as the main process computed it when asking. */
export function ChangePreview({ preview }: { preview: PermissionPreview }) {
  return (
    <div className="change-preview" data-testid="change-preview">
      <div className="change-preview-head">
        <span>{preview.created ? 'New file' : 'Changes to'}</span> <code>{preview.path}</code>{' '}
        <span className="diff-count diff-add">+{preview.added}</span>{' '}
        <span className="diff-count diff-del">−{preview.removed}</span>
      </div>
      {preview.note ? <p className="change-preview-note">{preview.note}</p> : null}
      {preview.lines.length > 0 ? (
        <DiffView lines={preview.lines} path={preview.path} label={`Proposed changes to ${preview.path}`} />
      ) : null}
      {preview.truncated ? (
        <p className="muted change-preview-cut">
          Preview shortened (long lines or many lines left out); the full change is in the call’s input.
        </p>
      ) : null}
    </div>
  );
}
