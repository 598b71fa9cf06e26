/** CREATE: what CreateAssetGroup answers and stores. */
import { ApiError, defaultHooks, type CreateInput, type HookContext } from '../behaviour';
import { CHANNEL_B } from '../config';
import { family, nameSearchResult, unfiltered } from './helpers';
import { escapeHtml } from '../wire';

/** Stores each field through `store`, after the reference validation. */
function validateCreateStoring(store: (field: string, value: string) => string) {
  return (body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError => {
    const input = defaultHooks.validateCreate(body, ctx);
    if (input instanceof ApiError) return input;
    return Object.fromEntries(Object.entries(input).map(([field, value]) => [field, store(field, value)])) as unknown as CreateInput;
  };
}

export const CREATE = family({
  /**
   * Channel B's upstream connector answers a blank Id (a space) and the group is filed under it.
   * Blank, not empty, so the kit's create phase still tracks the group: only the checks of the
   * create answer itself can tell.
   */
  blankIdFromOneChannel: {
    breaks: 'CREATE-01',
    description: 'creates through channel B answer 200 with a blank Result.Id (" ")',
    hooks: {
      createGroup: (principal, input, ctx) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        if (principal.channel === CHANNEL_B) group.Id = ' ';
        return group;
      },
    },
  },
  /** Strings are normalised to NFC on the way in, so combining marks do not round-trip. */
  /**
   * REST habit: a create is answered 201 Created (Express's res.status(201), Spring's ResponseEntity.created), its body
   * unchanged. A C server built blind from the spec, changed to do this, failed CREATE-05 beside CREATE-01.
   */
  createdWith201: {
    breaks: 'CREATE-01',
    description: 'a create is answered 201 Created instead of 200, its body unchanged',
    hooks: {
      wire: (answer, request) => (answer.status === 200 && request.query.get('Action') === 'CreateAssetGroup' ? { ...answer, status: 201 } : answer),
    },
  },
  unicodeNormalised: {
    breaks: 'CREATE-02',
    description: 'create fields are normalised to NFC, so combining marks do not round-trip',
    hooks: { validateCreate: validateCreateStoring((_field, value) => value.normalize('NFC')) },
  },
  /** Channel-bound creates take Ids from a per-channel sequence: two channels repeat each other's Ids. */
  channelSequenceIds: {
    breaks: 'CREATE-03',
    description: "channel-bound creates take Ids from a per-channel sequence, so channels repeat each other's Ids",
    hooks: {
      createGroup: (principal, input, ctx) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        if (principal.channel !== null) group.Id = `agp-${ctx.store.all().filter((g) => g.channel === principal.channel).length}`;
        return group;
      },
    },
  },
  /** An omitted ProjectName is stored as an empty string instead of the default. */
  projectNameDefaultEmpty: {
    breaks: 'CREATE-04',
    description: 'an omitted ProjectName is stored as "" instead of "default"',
    hooks: {
      validateCreate: (body, ctx) => {
        const input = defaultHooks.validateCreate(body, ctx);
        const omitted = !Object.prototype.hasOwnProperty.call(body, 'ProjectName');
        return input instanceof ApiError || !omitted ? input : { ...input, ProjectName: '' };
      },
    },
  },
  longNameTruncated: {
    breaks: 'CREATE-05',
    description: 'Names are stored cut to 60 characters',
    hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'Name' ? [...value].slice(0, 60).join('') : value)) },
  },
  astralCharsReplaced: {
    breaks: 'CREATE-02',
    description: 'characters outside the BMP are stored as U+FFFD',
    hooks: { validateCreate: validateCreateStoring((_field, value) => value.replace(/[\u{10000}-\u{10FFFF}]/gu, '\ufffd')) },
  },
  emptyTitleDefaulted: {
    breaks: 'CREATE-05',
    description: 'an empty Title is stored as "Untitled"',
    hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'Title' && value === '' ? 'Untitled' : value)) },
  },
  projectNameIgnored: {
    breaks: 'CREATE-02',
    description: 'the ProjectName sent is ignored and every group is stored under "default"',
    hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'ProjectName' ? 'default' : value)) },
  },
  /**
   * Django REST framework's CharField trims by default (trim_whitespace=True), before its length
   * and blank checks: what comes back is not what was sent.
   */
  trimsWhitespace: {
    breaks: 'CREATE-06',
    description: 'Name, Title and Description are stored trimmed of leading and trailing whitespace',
    hooks: {
      validateCreate: (body, ctx) => {
        const trimmed: Record<string, unknown> = { ...body };
        for (const field of ['Name', 'Title', 'Description']) {
          const value = trimmed[field];
          if (typeof value === 'string') trimmed[field] = value.trim();
        }
        return defaultHooks.validateCreate(trimmed, ctx);
      },
    },
  },
  /**
   * The search by name renders its items through a template layer that escapes HTML (Jinja2's autoescape, Django's
   * templates): `&` comes back as `&amp;`. CREATE-02 reads the run's groups back by their Ids, which this path does not
   * touch: only the run-wide oracle compares a name search's items with what the run created.
   */
  nameSearchEscapesHtml: {
    breaks: 'CREATE-02',
    description: 'items of a list filtered by name carry their Title and Description HTML-escaped (& < > " \' as entities)',
    hooks: nameSearchResult((result) => ({
      ...result,
      Items: result.Items.map((item) => ({ ...item, Title: escapeHtml(item.Title), Description: escapeHtml(item.Description) })),
    })),
  },
  /**
   * The plain list (no filter) is served from a listing table kept for the dashboard, whose Description column is a
   * VARCHAR(255): longer descriptions come back cut. CREATE-02 and every other test read the run's groups through a
   * filter; only the run-wide oracle compares the plain first page (AUTH-05's) with what the run created.
   */
  plainListFromSummaryTable: {
    breaks: 'CREATE-02',
    description: 'items of a list without any filter carry their Description cut to 255 characters',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return unfiltered(query) ? { ...result, Items: result.Items.map((item) => ({ ...item, Description: item.Description.slice(0, 255) })) } : result;
      },
    },
  },
});
