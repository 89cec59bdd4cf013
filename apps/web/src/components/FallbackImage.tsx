import { type ImgHTMLAttributes, useState } from 'react';
import placeholder from '../assets/image-placeholder.svg';
import { t } from '../locales/zh-CN';

/** An <img> that shows a placeholder when the source is empty or fails to load. */
export function FallbackImage({ src, alt, ...props }: ImgHTMLAttributes<HTMLImageElement>) {
  const [failedSrc, setFailedSrc] = useState<string | undefined>();
  const broken = !src || failedSrc === src;
  return (
    <img
      {...props}
      src={broken ? placeholder : src}
      alt={broken ? t.common.imagePlaceholderAlt : alt}
      data-placeholder={broken || undefined}
      onError={() => setFailedSrc(src)}
    />
  );
}
