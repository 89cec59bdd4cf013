import type { ImageMap } from '@gpu/shared/images';
import { fireEvent, render, screen } from '@testing-library/react';
import { useReducer } from 'react';
import { describe, expect, it } from 'vitest';
import { cascaderReducer, INITIAL_CASCADER } from '../image-cascader';
import { image } from '../test-fixtures';
import { ImageCascader } from './ImageCascader';

const IMAGE_MAP: ImageMap = { pytorch: { '2.5.1': { '3.12': [image({})] } } };

function Harness({ imageMap, loading }: { imageMap: ImageMap | undefined; loading: boolean }) {
  const [state, dispatch] = useReducer(cascaderReducer, INITIAL_CASCADER);
  return (
    <ImageCascader
      imageMap={imageMap}
      loading={loading}
      failed={false}
      onRetry={() => {}}
      state={state}
      dispatch={dispatch}
    />
  );
}

const inFirstColumn = () => screen.getByTestId('image-framework').contains(document.activeElement);

describe('ImageCascader focus', { timeout: 30_000 }, () => {
  it('moves into the first column on open', () => {
    render(<Harness imageMap={IMAGE_MAP} loading={false} />);
    fireEvent.click(screen.getByTestId('image-trigger'));
    expect(inFirstColumn()).toBe(true);
  });

  it('opened while the images load, moves into the first column when they arrive', () => {
    // A loaded CI runner opened the panel before the images came; focus stayed on the trigger
    // and the keyboard walk never reached the columns.
    const view = render(<Harness imageMap={undefined} loading={true} />);
    fireEvent.click(screen.getByTestId('image-trigger'));
    expect(screen.queryByTestId('image-framework')).toBeNull();
    view.rerender(<Harness imageMap={IMAGE_MAP} loading={false} />);
    expect(inFirstColumn()).toBe(true);
  });

  it('gives focus back to the field on Escape', () => {
    render(<Harness imageMap={IMAGE_MAP} loading={false} />);
    fireEvent.click(screen.getByTestId('image-trigger'));
    fireEvent.keyDown(screen.getByTestId('image-panel'), { key: 'Escape' });
    expect(screen.queryByTestId('image-panel')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('image-trigger'));
  });
});
