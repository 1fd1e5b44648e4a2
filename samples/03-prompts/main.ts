import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Content, Field, PhantomServer, Prompt, assistantText, promptMessage, userText } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

export class TripArgs {
  @Field({ description: 'Where to go' })
  @IsString()
  city!: string;

  @Field({ description: 'How many days' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(30)
  days = 3;

  @Field({ description: 'Travel style' })
  @IsOptional()
  @IsIn(['budget', 'comfort', 'luxury'])
  style?: string;
}

/** Prompts with arguments, completion and several kinds of message. */
export class TravelPrompts {
  @Prompt({ description: 'Plan a trip', complete: { city: ['Paris', 'Prague', 'Porto', 'Oslo'], style: ['budget', 'comfort', 'luxury'] } })
  plan(args: TripArgs) {
    return userText(`Plan ${args.days} days in ${args.city}${args.style ? `, ${args.style} style` : ''}.`);
  }

  @Prompt({ description: 'A short conversation to continue' })
  smallTalk() {
    return [userText('Hi! Where should I travel?'), assistantText('Where have you been so far?')];
  }

  @Prompt({ description: 'A message with an embedded resource' })
  withGuide() {
    return promptMessage('user', Content.resource({ uri: 'guide://paris', mimeType: 'text/plain', text: 'Paris: museums, cafés.' }));
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'travel', version: '1.0.0', providers: [TravelPrompts], store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
