import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HeroPreview } from './HeroPreview';

describe('HeroPreview', () => {
  it('shows the title and subtitle in their colours over the tenant gradient', () => {
    render(
      <HeroPreview
        look={{
          theme: { primaryColor: '#0a8f6c', gradientStart: '#064e3b', gradientEnd: '#0a8f6c' },
          homepage: {
            title: '青松算力',
            titleColor: '#ffffff',
            subtitle: '为科研而生',
            subtitleColor: '#e6fffb',
          },
        }}
      />,
    );
    const hero = screen.getByTestId('hero-preview');
    expect(hero.style.background).toContain('linear-gradient');
    expect(hero.style.background).toContain('#064e3b');
    expect(screen.getByText('青松算力').style.color).toBe('rgb(255, 255, 255)');
    expect(screen.getByText('为科研而生').style.color).toBe('rgb(230, 255, 251)');
    expect(screen.getByRole('button', { name: '立即使用' }).style.background).toBe('rgb(10, 143, 108)');
  });

  it('shows a dash until a title is typed', () => {
    render(<HeroPreview look={{}} />);
    expect(screen.getByRole('heading').textContent).toBe('—');
  });
});
