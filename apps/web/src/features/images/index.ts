import { lazy } from 'react';

// What other features use of images (the only way in from outside this folder), each loaded on
// first use: the instance row's 保存镜像 dialog and the subscribe screen's 我的镜像 tab.
export const SaveImageDialog = lazy(() => import('./components/SaveImageDialog'));
export const MyImagePicker = lazy(() => import('./components/MyImagePicker'));
export type { MyImagePickerProps } from './components/MyImagePicker';
// The back office's image catalogue tab edits the per-user quota.
export const ImageQuotaCard = lazy(() => import('./components/ImageQuotaCard'));
