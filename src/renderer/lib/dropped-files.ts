// Files that arrive by drag-and-drop or paste, turned into picked files the upload channel takes: a
// file on disk by its path (found by the preload), an image from the clipboard or a web page by its
// bytes (uploads:pickPasted). The service checks every file's real content when it is stored.
import type { PickedFile } from '../../shared/ipc-contract.js';
import { PASTED_IMAGE_TYPES } from '../../shared/ipc-results-channels.js';
import { ApiError, invoke, pickDroppedFile } from './api';

const MAX_PASTED_BYTES = 20 * 1024 * 1024;

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const isPastable = (type: string): type is (typeof PASTED_IMAGE_TYPES)[number] =>
  (PASTED_IMAGE_TYPES as readonly string[]).includes(type);

/** A dropped or pasted File as a picked file; ApiError when it can be neither (not on disk, not an image). */
export async function pickedFromFile(file: File): Promise<PickedFile> {
  const onDisk = await pickDroppedFile(file);
  if (onDisk) return onDisk;
  if (!isPastable(file.type)) {
    throw new ApiError(
      'validation_error',
      `${file.name || 'This item'} is not a file on this computer: drop a file from a folder, or paste an image.`,
    );
  }
  if (file.size > MAX_PASTED_BYTES) throw new ApiError('file_too_large', 'A pasted image can be at most 20 MB.');
  const data = base64Of(new Uint8Array(await file.arrayBuffer()));
  return invoke('uploads:pickPasted', {
    content_type: file.type,
    data,
    ...(file.name ? { name: file.name } : {}),
  });
}

/** The files of a drop or a paste (clipboard items that are files). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  if (data.files.length) return [...data.files];
  return [...data.items].flatMap((item) => {
    const file = item.kind === 'file' ? item.getAsFile() : null;
    return file ? [file] : [];
  });
}
