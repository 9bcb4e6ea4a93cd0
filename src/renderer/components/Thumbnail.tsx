import { useState } from 'react';
import { fileIconOf, Icon } from './Icon';

/**
 * A small preview of a stored file from its time-limited URL: the image itself, a video's first frame,
 * or the file kind's icon (audio, no URL, or a URL that no longer loads).
 */
export function Thumbnail({
  url,
  contentType,
  alt,
  size = 'medium',
}: {
  url: string | null | undefined;
  contentType: string;
  alt: string;
  size?: 'small' | 'medium' | 'large';
}) {
  const [broken, setBroken] = useState(false);
  const className = `thumb thumb-${size}`;
  if (url && !broken && contentType.startsWith('image/')) {
    return <img className={className} src={url} alt={alt} loading="lazy" onError={() => setBroken(true)} />;
  }
  if (url && !broken && contentType.startsWith('video/')) {
    return (
      <video
        className={className}
        // #t: the browser shows a frame a little in, not a black first frame.
        src={`${url}#t=0.1`}
        preload="metadata"
        muted
        playsInline
        aria-label={alt}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span className={`${className} thumb-placeholder`} role="img" aria-label={alt}>
      <Icon name={fileIconOf(contentType)} size={size === 'small' ? 16 : 24} />
    </span>
  );
}
