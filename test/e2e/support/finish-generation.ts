import { media } from '../../helpers/media-fixtures.js';
import type { TestServer } from '../../helpers/test-server.js';

/**
 * Finishes generation `id` as the render job does (the test server pauses renders): its video and thumbnail stored,
 * the generation completed, the `generation.status` event sent, which the window follows. Returns what complete()
 * said (false: the generation was not in a state to complete).
 */
export async function finishGeneration(t: TestServer, id: string, video: Buffer = media.mp4()): Promise<boolean> {
  await t.core.video.blobs.put(`generations/${id}.mp4`, video, 'video/mp4');
  await t.core.video.blobs.put(`generations/${id}.jpg`, media.jpeg(), 'image/jpeg');
  const completed = t.core.video.generations.complete(id, {
    videoKey: `generations/${id}.mp4`,
    thumbnailKey: `generations/${id}.jpg`,
  });
  t.core.events.emit('generation.status', { orgId: t.orgId, generationId: id, status: 'completed', error: null });
  return completed;
}
