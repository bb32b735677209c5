import type { Photo } from '@hoptrack/proto';
import { fileSizeLabel, shortDate } from '../../lib/format';
import { Modal } from '../Modal';

/** A ready photo opened large (its full `url`), with its description, size and date. */
export function PhotoViewer({ photo, onClose }: { photo: Photo; onClose: () => void }) {
  const facts = [
    photo.width && photo.height ? `${photo.width} × ${photo.height}` : null,
    fileSizeLabel(photo.fileSize),
    shortDate(photo.createdAt),
  ].filter(Boolean);
  return (
    <Modal open title={photo.originalName} description={photo.description ?? undefined} onClose={onClose}>
      <figure className="photo-viewer">
        {photo.url && <img className="photo-viewer__image" src={photo.url} alt={photo.originalName} />}
        <figcaption className="photo-viewer__facts">{facts.join(' · ')}</figcaption>
      </figure>
    </Modal>
  );
}
