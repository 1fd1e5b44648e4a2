import 'reflect-metadata';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString } from 'class-validator';
import {
  Content, Context, Elicit, Field, Prompt, Resource, ResourceContent, Tool, ToolResult, promptMessage, userText,
} from '../../lib';

/** A 1x1 PNG and a minimal WAV: the media the conformance suite checks. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Elicit({ message: 'Please provide your information' })
export class UserResponse {
  @Field({ description: "User's response" }) @IsString() username!: string;
  @Field({ description: "User's email address" }) @IsString() email!: string;
}

@Elicit({ message: 'Please review and update the form fields with defaults' })
export class DefaultsForm {
  @Field({ description: 'User name' }) @IsOptional() @IsString() name = 'John Doe';
  @Field({ description: 'User age' }) @IsOptional() @IsInt() age = 30;
  @Field({ description: 'User score' }) @IsOptional() @IsNumber() score = 95.5;
  @Field({ description: 'User status' }) @IsOptional() @IsIn(['active', 'inactive', 'pending']) status = 'active';
  @Field({ description: 'Verification status' }) @IsOptional() @IsBoolean() verified = true;
}

@Elicit({ message: 'Please select options from the enum fields' })
export class EnumsForm {
  @Field({ description: 'Select one option' })
  @IsOptional() @IsIn(['option1', 'option2', 'option3'])
  untitledSingle?: string;

  @Field({ description: 'Select one option with titles', oneOf: { value1: 'First Option', value2: 'Second Option', value3: 'Third Option' } })
  @IsOptional() @IsIn(['value1', 'value2', 'value3'])
  titledSingle?: string;

  @Field({ description: 'Select one option (legacy)', enumNames: ['Option One', 'Option Two', 'Option Three'] })
  @IsOptional() @IsIn(['opt1', 'opt2', 'opt3'])
  legacyEnum?: string;

  @Field({ description: 'Select multiple options' })
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsIn(['option1', 'option2', 'option3'], { each: true })
  untitledMulti?: string[];

  @Field({ description: 'Select multiple options with titles', oneOf: { value1: 'First Choice', value2: 'Second Choice', value3: 'Third Choice' } })
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsIn(['value1', 'value2', 'value3'], { each: true })
  titledMulti?: string[];
}

export class SamplingArgs {
  @Field({ description: 'The prompt to send to the client model' }) @IsString() prompt!: string;
}

export class ElicitationArgs {
  @Field({ description: 'The message to show the user' }) @IsString() message!: string;
}

/** The tools the official conformance suite calls, by the names it uses. */
export class ConformanceTools {
  @Tool({ name: 'test_simple_text', description: 'Returns a simple text response' })
  simpleText() { return 'This is a simple text response for testing.'; }

  @Tool({ name: 'test_image_content', description: 'Returns an image' })
  image() { return Content.image(PNG_BASE64, 'image/png'); }

  @Tool({ name: 'test_audio_content', description: 'Returns audio' })
  audio() { return Content.audio(WAV_BASE64, 'audio/wav'); }

  @Tool({ name: 'test_embedded_resource', description: 'Returns an embedded resource' })
  embedded() {
    return Content.resource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Returns text, an image and a resource' })
  mixed() {
    return [
      Content.text('Multiple content types test:'),
      Content.image(PNG_BASE64, 'image/png'),
      Content.resource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
    ];
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Logs while it runs' })
  async logging(_args: object, ctx: Context) {
    await ctx.log.info('Tool execution started');
    await pause(50);
    await ctx.log.info('Tool processing data');
    await pause(50);
    await ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails, as a tool result' })
  failing() { return ToolResult.error('This tool intentionally returns an error for testing'); }

  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress' })
  async progress(_args: object, ctx: Context) {
    for (const step of [0, 50, 100]) {
      await ctx.progress(step, 100, `Completed step ${step} of 100`);
      await pause(50);
    }
    return 'Progress test completed';
  }

  @Tool({ name: 'test_sampling', description: 'Asks the client model to answer a prompt' })
  async sampling(args: SamplingArgs, ctx: Context) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
    const content = reply.content as { type?: string; text?: string } | undefined;
    return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
  }

  @Tool({ name: 'test_elicitation', description: 'Asks the user for a username and an email' })
  async elicitation(args: ElicitationArgs, ctx: Context) {
    const answer = await ctx.elicit(UserResponse, { message: args.message });
    return describeAnswer('User response', answer);
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Elicits a form with a default on every field' })
  async defaults(_args: object, ctx: Context) {
    return describeAnswer('Elicitation completed', await ctx.elicit(DefaultsForm));
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Elicits every kind of enum field' })
  async enums(_args: object, ctx: Context) {
    return describeAnswer('Elicitation completed', await ctx.elicit(EnumsForm));
  }

  @Tool({
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call; the result arrives after the client reconnects (SEP-1699)',
  })
  async reconnection(_args: object, ctx: Context) {
    await ctx.closeStream();
    await pause(100);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features (SEP-1613)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  })
  jsonSchema(args: object) { return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`; }
}

function describeAnswer(prefix: string, answer: { action: string; content?: unknown }): string {
  const content = 'content' in answer && answer.content !== undefined ? `, content=${JSON.stringify(answer.content)}` : '';
  return `${prefix}: action=${answer.action}${content}`;
}

/** The resources the suite reads and subscribes to. */
export class ConformanceResources {
  @Resource('test://static-text', { title: 'Static text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText() { return 'This is the content of the static text resource.'; }

  @Resource('test://static-binary', { title: 'Static binary', description: 'A static PNG image', mimeType: 'image/png' })
  staticBinary() { return ResourceContent.blob(PNG_BASE64); }

  @Resource('test://watched-resource', { title: 'Watched', description: 'A resource clients may subscribe to', mimeType: 'text/plain' })
  watched() { return 'Watched resource content'; }

  @Resource('test://template/{id}/data', { title: 'Template data', description: 'Data for an id', mimeType: 'application/json' })
  templateData({ id }: { id: string }) {
    return ResourceContent.text({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}

export class PromptArgs {
  @Field({ description: 'First test argument' }) @IsString() arg1!: string;
  @Field({ description: 'Second test argument' }) @IsString() arg2!: string;
}

export class EmbedArgs {
  @Field({ description: 'URI of the resource to embed' }) @IsString() resourceUri!: string;
}

/** The prompts the suite gets. */
export class ConformancePrompts {
  @Prompt({ name: 'test_simple_prompt', description: 'A prompt without arguments' })
  simple() { return 'This is a simple prompt for testing.'; }

  @Prompt({ name: 'test_prompt_with_arguments', description: 'A prompt with two arguments' })
  withArguments(args: PromptArgs) { return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`; }

  @Prompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt embedding a resource' })
  withResource(args: EmbedArgs) {
    return [
      promptMessage('user', Content.resource({ uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' })),
      userText('Please process the embedded resource above.'),
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  withImage() {
    return [promptMessage('user', Content.image(PNG_BASE64, 'image/png')), userText('Please analyze the image above.')];
  }
}
