/** What `@Elicit` records about a form class. */
export interface ElicitOptions {
  /** Shown to the user above the form: say what you need and why. */
  readonly message: string;
}
