// A QR code image (a screenshot of the site's "set up your authenticator" page) read into its otpauth:// text,
// in the page: drawn on a canvas, its pixels handed to jsQR. Nothing leaves the window.
import jsQR from 'jsqr';

/** Big screenshots are scaled down first: jsQR's time grows with the pixels, and a QR code needs few. */
const MAX_SIDE = 1600;

export class QrError extends Error {}

async function pixelsOf(file: Blob): Promise<ImageData> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new QrError('That file is not an image this window can read (use a PNG, JPEG, GIF or WebP).');
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new QrError('This window cannot read images right now.');
  // A transparent PNG would read as black on black: paint it on white, as it is shown.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return ctx.getImageData(0, 0, width, height);
}

/** The otpauth:// URI in a QR code image; QrError says why when there is none. */
export async function otpauthFromImage(file: Blob): Promise<string> {
  if (file.type && !file.type.startsWith('image/'))
    throw new QrError('Drop or paste an image of the QR code (a screenshot works).');
  const image = await pixelsOf(file);
  const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' });
  if (!code) {
    throw new QrError(
      'No QR code was found in that image. Use a sharper or larger screenshot of the whole code, or type the secret.',
    );
  }
  const text = code.data.trim();
  if (text.startsWith('otpauth-migration://'))
    throw new QrError(
      'That QR code is an authenticator app’s export of several accounts; use the site’s own setup QR code instead.',
    );
  if (!/^otpauth:\/\/totp\//i.test(text))
    throw new QrError('That QR code holds no authenticator secret (it should start with otpauth://totp/).');
  return text;
}
