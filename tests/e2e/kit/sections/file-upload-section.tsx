// Showcase of the file upload: the live field uploads to the real main-service through the app's data
// access (src/lib/upload.ts, src/lib/authorized-image.ts) and shows its value; beside it the invalid and
// disabled states, and a field whose uploads always fail (no answer), for the error text and Retry.
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { loadAuthorizedImage } from '../../../../src/lib/authorized-image';
import { uploadFile } from '../../../../src/lib/upload';
import { FileUpload, type UploadFn } from '../../../../src/ui/file-upload/file-upload';

const noAnswer: UploadFn = async (_file, onProgress) => {
  onProgress(0.3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return null;
};

export default function FileUploadSection() {
  const intl = useIntl();
  const [photos, setPhotos] = useState<string[]>([]);
  const [required, setRequired] = useState<string[]>([]);
  const [failing, setFailing] = useState<string[]>([]);
  return (
    <section data-kit="file-upload">
      <h2>
        <FormattedMessage id="kit.upload.title" defaultMessage="File upload" />
      </h2>
      <FileUpload
        label={intl.formatMessage({ id: 'kit.upload.photos', defaultMessage: 'Photos' })}
        name="photos"
        value={photos}
        onChange={setPhotos}
        upload={uploadFile}
        loadImage={loadAuthorizedImage}
      />
      <p>
        <FormattedMessage id="kit.upload.value" defaultMessage="Field value (image ids)" />
        {': '}
        <output data-kit-value="file-upload">
          {photos.length > 0 ? photos.join(', ') : <FormattedMessage id="kit.upload.empty" defaultMessage="No images yet" />}
        </output>
      </p>
      <FileUpload
        label={intl.formatMessage({ id: 'kit.upload.invalid', defaultMessage: 'Photos of the problem' })}
        name="problemPhotos"
        value={required}
        onChange={setRequired}
        upload={uploadFile}
        loadImage={loadAuthorizedImage}
        required
        max={1}
        error={
          required.length === 0 ? intl.formatMessage({ id: 'kit.upload.required', defaultMessage: 'Add at least one photo' }) : undefined
        }
      />
      <FileUpload
        label={intl.formatMessage({ id: 'kit.upload.failing', defaultMessage: 'Photos (the server never answers)' })}
        name="failingPhotos"
        value={failing}
        onChange={setFailing}
        upload={noAnswer}
      />
      <FileUpload
        label={intl.formatMessage({ id: 'kit.upload.disabled', defaultMessage: 'Photos (disabled)' })}
        name="disabledPhotos"
        value={[]}
        onChange={() => undefined}
        upload={uploadFile}
        disabled
      />
    </section>
  );
}
