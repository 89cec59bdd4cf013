import { gbOf } from '@gpu/shared/sizes';
import type { SaveImageRequest, UserImage, UserImageList, UserImageQuota } from '@gpu/shared/user-images';
import { useQuery } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import { USER_QUERY_KEY } from '../../../lib/session';

/** Under the per-user prefix, so a sign-out drops them. */
export const imageKeys = {
  list: () => [...USER_QUERY_KEY, 'user-images'] as const,
  quota: () => ['admin', 'user-images', 'quota'] as const,
};

/** Polled every few seconds while one is being saved or deleted (the save is a job on the server). */
const SAVING_POLL_MS = 3000;

/** GET /user/images: the user's saved images and the quota. */
export const useUserImages = (enabled = true) =>
  useQuery({
    queryKey: imageKeys.list(),
    queryFn: ({ signal }) => api.get<UserImageList>('/user/images', { signal }),
    enabled,
    staleTime: 5000,
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.status === 'SAVING' || i.status === 'DELETING')
        ? SAVING_POLL_MS
        : false,
  });

/** POST /gpu/instance/save-image?instance_uuid=: answers the image in SAVING. */
export const saveImage = (uuid: string | number, body: SaveImageRequest) =>
  api.post<UserImage>('/gpu/instance/save-image', body, { query: { instance_uuid: uuid } });

/** DELETE /user/images/:id; answers the server's message. */
export const deleteUserImage = async (id: number) =>
  (await requestEnvelope<null>('DELETE', `/user/images/${id}`)).message;

export const useImageQuota = () =>
  useQuery({
    queryKey: imageKeys.quota(),
    queryFn: ({ signal }) => api.get<UserImageQuota>('/admin/user-images/quota', { signal }),
  });

export const putImageQuota = (body: UserImageQuota) =>
  api.put<UserImageQuota>('/admin/user-images/quota', body);

/** A size in GB with one decimal (a size, not money). */
/** Sizes as users read them: GB with one decimal. */
export const formatGb = (bytes: number | null) => (bytes === null ? '-' : `${gbOf(bytes)} GB`);
