// The owner's return of a registry asks for its comment (required: the sender reads it) in the dialog kit's confirm
// dialog. The comment lives in the field's own state inside the dialog and is read when the owner confirms; an empty
// one opens the dialog again with the text kept and the error beside the field, so nothing is returned without it.
import { useState } from 'react';
import type { IntlShape } from 'react-intl';
import { REGISTRY_COMMENT_MAX } from '../../../domain/registry';
import type { DialogApi } from '../../../ui/dialog';
import { Textarea } from '../../../ui/textarea';

interface CommentFieldProps {
  label: string;
  initial: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

function ReturnCommentField({ label, initial, error, onChange }: CommentFieldProps) {
  const [value, setValue] = useState(initial);
  return (
    <div className="registry-return-dialog">
      <Textarea
        name="returnComment"
        label={label}
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
        maxLength={REGISTRY_COMMENT_MAX}
        error={error}
        required
      />
    </div>
  );
}

/** Asks the owner why they return the registry; the trimmed comment, or null when they close the dialog. */
export async function askReturnComment(dialog: DialogApi, intl: IntlShape): Promise<string | null> {
  let text = '';
  let error: string | undefined;
  for (;;) {
    const isConfirmed = await dialog.confirm({
      title: intl.formatMessage({ id: 'registry.return.title', defaultMessage: 'Return the registry?' }),
      content: (
        <ReturnCommentField
          label={intl.formatMessage({ id: 'registry.return.comment', defaultMessage: 'Why do you return it? The sender will read this.' })}
          initial={text}
          error={error}
          onChange={(value) => {
            text = value;
          }}
        />
      ),
      confirmText: intl.formatMessage({ id: 'registry.return.confirm', defaultMessage: 'Return the registry' }),
      closeText: intl.formatMessage({ id: 'registry.return.cancel', defaultMessage: 'Cancel' }),
    });
    if (!isConfirmed) return null;
    if (text.trim() !== '') return text.trim();
    error = intl.formatMessage({ id: 'registry.return.required', defaultMessage: 'Write a comment: a registry is returned only with one.' });
  }
}
