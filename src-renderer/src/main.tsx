// The base styles come first, so each screen's own stylesheet (imported with it) can refine them.
import './styles/base.css';
import './styles/controls.css';
import './styles/layout.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './Root.tsx';
import { applyTheme, storedTheme } from './theme/theme.ts';

// Before the first paint, so a dark-mode user never sees a white flash.
applyTheme(storedTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
