import { EXECUTION_CODES } from '@sino/shared';

/** A step's content could not be rendered; the engine records it as execution code 3013. */
export class TemplateError extends Error {
  readonly code = EXECUTION_CODES.SYNTAX_ERROR_IN_EMAIL_EDITOR;
}

/** The template does not parse (unclosed or mismatched block, broken mustache). */
export class TemplateSyntaxError extends TemplateError {
  constructor(
    message: string,
    /** 1-based line of the error, when Handlebars reports one. */
    readonly line: number | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'TemplateSyntaxError';
  }
}

/**
 * The template parses but fails while rendering: a helper that does not exist, a helper that
 * throws (an invalid `dateFormat` pattern), a missing partial.
 */
export class TemplateRenderError extends TemplateError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TemplateRenderError';
  }
}
