import type { TranscriptItem } from '../../../../src/shared/chat/messages';
import { renderBatchCard } from './batchCard';
import type { ItemContext } from './context';
import { renderPlanCard, renderReflection } from './planCard';
import { renderAssistant, renderError, renderNotice, renderUser } from './messageItems';
import { renderDirectoryCard, renderPermissionCard } from './requestCards';
import { renderToolCard } from './toolCard';

/** One transcript item → its element (the virtual list wraps it); an answer may update `previous` in place. */
export function renderItem(item: TranscriptItem, ctx: ItemContext, previous?: HTMLElement): HTMLElement {
  switch (item.kind) {
    case 'user':
      return renderUser(item, ctx);
    case 'assistant':
      return renderAssistant(item, ctx, previous);
    case 'tool':
      return renderToolCard(item, ctx);
    case 'permission':
      return renderPermissionCard(item, ctx);
    case 'directory':
      return renderDirectoryCard(item, ctx);
    case 'batch':
      return renderBatchCard(item, ctx);
    case 'error':
      return renderError(item, ctx);
    case 'notice':
      return renderNotice(item);
    case 'plan':
      return renderPlanCard(item, ctx);
    case 'reflection':
      return renderReflection(item, ctx);
  }
}
