import { useEffect } from 'react';
import { Icon, type IconName } from '../../components/Icon';
import { Thumbnail } from '../../components/Thumbnail';
import { useAppStore } from '../../stores/app-store';

const CATEGORY_ICONS: Record<string, IconName> = {
  'text-to-video': 'sparkle',
  'image-to-video': 'image',
  'ingredients-to-video': 'users',
  'video-to-video': 'film',
  'audio-to-video': 'music',
};

/**
 * A template's picture: a frame of the latest video made with it (its generation's thumbnail), or,
 * before any, its category's icon. Templates carry no image of their own.
 */
export function TemplateThumb({
  templateId,
  category,
  title,
}: {
  templateId: string;
  category: string;
  title: string;
}) {
  const status = useAppStore((s) => s.generations.status);
  const load = useAppStore((s) => s.loadGenerations);
  const latest = useAppStore((s) =>
    s.generations.data.find((g) => g.template_id === templateId && g.status === 'completed' && g.thumbnail_url),
  );
  useEffect(() => {
    if (status === 'idle') void load({ quiet: true });
  }, [status, load]);
  if (latest?.thumbnail_url) {
    return (
      <Thumbnail url={latest.thumbnail_url} contentType="image/jpeg" alt={`Latest video of ${title}`} size="small" />
    );
  }
  return (
    <span className={`thumb thumb-small thumb-placeholder thumb-category-${category}`} aria-hidden="true">
      <Icon name={CATEGORY_ICONS[category] ?? 'play'} size={16} />
    </span>
  );
}
